import sys

from flake8_stale_state.cli import main

sys.exit(main())
