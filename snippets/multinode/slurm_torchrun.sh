#!/bin/bash
# sbatch slurm_torchrun.sh: srun starts one torchrun per node, torchrun starts the workers.
#SBATCH --job-name=train
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=2

# The first node of the job hosts the rendezvous.
head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
export OMP_NUM_THREADS=1

srun torchrun \
    --nnodes="$SLURM_NNODES" \
    --nproc-per-node=2 \
    --rdzv-backend=c10d \
    --rdzv-endpoint="$head:29500" \
    --rdzv-id="$SLURM_JOB_ID" \
    train.py
