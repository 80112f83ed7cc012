"""``python -m robotrules``: the ``robotrules`` command."""

from robotrules.cli import main

raise SystemExit(main())
