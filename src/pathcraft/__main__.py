"""`python -m pathcraft` and the `pathcraft` command.

Importing the command line takes a while on a loaded machine: a Ctrl-C
then (or one that escapes `main`) ends the run with the message and the
status of any other interruption, not a traceback. Once `main` has
returned, Ctrl-C is ignored: the interpreter's finalization puts back the
default handler of a signal Python handles, and a Ctrl-C landing then
killed the finished run by the signal, with no word said (status -2, seen
in CI)."""

import os
import signal
import sys


def run() -> None:
    try:
        from pathcraft.app.cli import main

        code = main()
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the run is over: a Ctrl-C now changes nothing
    except KeyboardInterrupt:
        # ended at once, past the interpreter's finalization: a Ctrl-C that lands in an import half done
        # (seen on a loaded machine) could otherwise end the process by the signal (-2), not with 130
        sys.stderr.write("pathcraft: interrupted\n")
        sys.stderr.flush()
        sys.stdout.flush()
        os._exit(130)
    raise SystemExit(code)


if __name__ == "__main__":
    run()
