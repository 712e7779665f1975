"""The whole suite's check of the rooms server's log (issue 44: "no traceback in the server
log over the whole test suite"): a test that runs the server in this process (the modules
``test_server_*.py``, and every test of the browser's ``live_server``) fails when, while it
ran, the server wrote a traceback to the standard error (uvicorn's log) or logged one (the
server's own loggers, asyncio's, anything logged from the server's thread). Every expected
disconnect must be quiet. The servers run as processes of their own are checked where they
stop (test_server_processes.server_process)."""

from __future__ import annotations

import logging
from collections.abc import Generator

import pytest

SERVER_THREAD = "spades-server"  # spades_server.server.start_server's thread: its loop's log
SERVER_LOGGERS = ("spades_server", "uvicorn", "starlette", "websockets.server")


class _Tracebacks(logging.Handler):
    """Records with a traceback logged by the server (not by the tests' own clients)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.found: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        server = record.threadName == SERVER_THREAD or any(
            record.name == name or record.name.startswith(name + ".") for name in SERVER_LOGGERS)
        if server and (record.exc_info or "Traceback" in record.getMessage()):
            self.found.append(f"{record.name} ({record.threadName}): {record.getMessage()}")


_handler = _Tracebacks()


def pytest_configure(config: pytest.Config) -> None:
    logging.getLogger().addHandler(_handler)


def _runs_a_server(item: pytest.Item) -> bool:
    fixtures = getattr(item, "fixturenames", ())
    return item.path.name.startswith("test_server_") or "live_server" in fixtures


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None],
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    found = list(_handler.found)  # logged since the last phase's report
    _handler.found.clear()
    if report.passed and _runs_a_server(item):
        stderr = "".join(text for title, text in report.sections  # this phase's own
                         if title == f"Captured stderr {report.when}")
        if "Traceback" in stderr:
            found.append(stderr[-4000:])
        if found:
            report.outcome = "failed"
            report.longrepr = ("the rooms server's log holds a traceback (every expected "
                               "disconnect must be quiet):\n" + "\n".join(found))
    return report
