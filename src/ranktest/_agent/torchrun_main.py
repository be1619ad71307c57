"""torchrun's entry point, called as the ``torchrun`` console script calls it; what a warm
launch (:func:`ranktest.torchrun.launch_warm`) runs in a process forked from the forkserver.

It lives in a directory of its own: the directory of the script a run starts becomes the first
entry of its import path, and no module of ranktest's may shadow one of torch's imports there."""

import sys

from torch.distributed.run import main

sys.exit(main())
