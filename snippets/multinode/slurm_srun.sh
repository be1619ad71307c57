#!/bin/bash
# sbatch slurm_srun.sh: no torchrun; srun starts every rank itself, and train.py takes its rank
# from SLURM_PROCID, SLURM_NTASKS and SLURM_LOCALID.
#SBATCH --job-name=train
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=2

export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
export MASTER_PORT=29500
export OMP_NUM_THREADS=1

srun python train.py
