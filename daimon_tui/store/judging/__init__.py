"""daimon's judging kept between reads: the kept events fold, the shared
snapshot, the verdict cache and the live tail. Below `read/`, which uses them;
the child that runs the reads is `store/child/`."""
