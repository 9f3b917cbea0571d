import multiprocessing

from .cli import main

if __name__ == "__main__":  # a worker process imports this module again, as __mp_main__
    multiprocessing.freeze_support()
    raise SystemExit(main())
