from pathcraft.cli import main

raise SystemExit(main())
