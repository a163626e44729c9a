"""`python -m pathcraft` and the `pathcraft` command.

Importing the command line takes a while on a loaded machine: a Ctrl-C
then (or one that escapes `main`) ends the run with the message and the
status of any other interruption, not a traceback."""

import sys


def run() -> None:
    try:
        from pathcraft.app.cli import main

        code = main()
    except KeyboardInterrupt:
        sys.stderr.write("pathcraft: interrupted\n")
        code = 130
    raise SystemExit(code)


if __name__ == "__main__":
    run()
