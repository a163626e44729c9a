from pathcraft.app.cli import main

raise SystemExit(main())
