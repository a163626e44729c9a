"""`python -m pathcraft` and the `pathcraft` command.

Importing the command line takes a while on a loaded machine: a Ctrl-C
then is noted and acted on once the imports are done, and it (or one
that escapes `main`) ends the run with the message and the status of any
other interruption, not a traceback. Once `main` has
returned, Ctrl-C is ignored: the interpreter's finalization puts back the
default handler of a signal Python handles, and a Ctrl-C landing then
killed the finished run by the signal, with no word said (status -2, seen
in CI)."""

import os
import signal
import sys


def _quiet_z3_finalizers(unraisable: "sys.UnraisableHookArgs") -> None:
    """A Ctrl-C can land inside a Z3 object's constructor (a context takes
    milliseconds to make); the half-built object's finalizer then fails on
    an attribute never set, and Python prints that with a traceback. Z3's
    finalizers only free C memory: their AttributeError is dropped, any
    other error goes to the default hook. A Ctrl-C passed on to the work's
    thread that lands inside a finalizer is dropped too: the work asks
    `depth.interrupted()` as it goes and stops there instead."""
    module = getattr(unraisable.object, "__module__", None) or ""
    if unraisable.exc_type is AttributeError and module.split(".")[0] == "z3":
        return
    if unraisable.exc_type is KeyboardInterrupt and "pathcraft.depth" in sys.modules \
            and sys.modules["pathcraft.depth"].interrupted():
        return
    sys.__unraisablehook__(unraisable)


def run() -> None:
    sys.unraisablehook = _quiet_z3_finalizers
    # While the command line is imported, a Ctrl-C is only noted: raised there, it can land in a
    # callback of the import machinery, which prints it as an ignored exception with a traceback and
    # goes on (seen in CI, 0.2 s into a package run); acted on once the imports are done.
    noted: list[int] = []
    try:
        # (within the `try`: a Ctrl-C landing while the handler is being set is still the old handler's)
        previous = signal.signal(signal.SIGINT, lambda signum, frame: noted.append(signum))
        try:
            from pathcraft.app.cli import main
        finally:
            signal.signal(signal.SIGINT, previous)
        if noted and previous is not signal.SIG_IGN:
            raise KeyboardInterrupt
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
