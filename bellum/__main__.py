import sys

from bellum.cli import main

sys.exit(main())
