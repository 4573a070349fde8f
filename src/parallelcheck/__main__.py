"""Allow ``python -m parallelcheck``."""

from parallelcheck.cli import main

if __name__ == "__main__":
    main()
