#!/bin/bash
# sbatch slurm_static.sh: the static rendezvous; --node-rank differs per node, so it is
# expanded on each node (single quotes), not once in this script.
#SBATCH --job-name=train
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1

export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
export OMP_NUM_THREADS=1

srun bash -c 'torchrun --nnodes=$SLURM_NNODES --node-rank=$SLURM_NODEID --nproc-per-node=2 \
    --master-addr=$MASTER_ADDR --master-port=29500 train.py'
