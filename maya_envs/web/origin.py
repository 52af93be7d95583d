"""Which requests ``maya-web`` answers: its own page's, on the addresses it was started for.

Any web page a user opens can make their browser send requests to this server: a form or a
``fetch`` in ``no-cors`` mode posts a ``text/plain`` body (the page cannot read the answer, but
the game is made), and a DNS-rebinding page makes the browser take this server for the page's
own site (its requests then carry that site's name in ``Host``). So every request passes
:meth:`RequestPolicy.check` before its route runs (no Flask here; the app passes the headers):

* ``Host`` must name an address the server was started for (:attr:`RequestPolicy.hosts`: the
  loopback names and the bound address, plus ``maya-web --allow-host`` names) at the port the
  server listens on: a rebinding page's ``Host: evil.example`` is refused
  (:class:`ForeignHostError`, 400).
* A request that changes something (every method but ``GET``, ``HEAD``, ``OPTIONS``) is refused
  when the browser says another site sent it (:class:`CrossSiteError`, 403): an ``Origin`` that
  is not this server's own, or a ``Sec-Fetch-Site`` other than ``same-origin`` or ``none``. A
  request with neither header comes from no web page (a script, ``curl``) and passes.
* A body is read only with ``Content-Type: application/json`` (:func:`check_json`,
  :class:`MediaTypeError`, 415): a page of another site can send that type only after a CORS
  preflight, which this server never grants.

Every message names the refused value shortened (:func:`maya_envs.core.errors.shorten`) and
what is allowed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from maya_envs.core.errors import shorten

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
"""Names of this machine that a ``Host`` header may give (at the server's port)."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing here: no origin check."""
SAME_SITE_FETCHES = ("same-origin", "none")
"""``Sec-Fetch-Site`` values of the page's own requests (``none``: typed by the user)."""
JSON_TYPE = "application/json"
_DEFAULT_PORTS = {"http": 80, "https": 443}
_HOST_NAME = re.compile(r"[a-z0-9._-]+|[0-9a-f:.]+")
"""A host name or IPv4 address (lower case, as ``urlsplit`` gives it), or an IPv6 address."""


class ForeignHostError(ValueError):
    """The ``Host`` header names an address the server was not started for (DNS rebinding)."""


class CrossSiteError(PermissionError):
    """A state-changing request that the browser says another site's page sent."""


class MediaTypeError(ValueError):
    """A request body sent without ``Content-Type: application/json``."""


def split_host(text: str, scheme: str = "http") -> tuple[str, int | None] | None:
    """``(lower-case name, port)`` of a ``Host`` value or a ``--allow-host`` entry
    (``name``, ``name:port``, ``[v6]:port``; a bare IPv6 address is read as one);
    the port is ``None`` when not written; ``None`` for anything else (a path, a user, a bad
    port, a character no host name has)."""
    if text.count(":") > 1 and not text.startswith("["):
        text = f"[{text}]"
    try:
        parts = urlsplit(f"{scheme}://{text}")
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or parts.username is not None or parts.path or parts.query or parts.fragment:
        return None
    if not _HOST_NAME.fullmatch(parts.hostname):
        return None
    if f"//{text}".endswith(":"):  # "name:" gives no port
        return None
    return parts.hostname, port


def host_entry(text: str) -> tuple[str, int | None]:
    """A name the server answers to, as ``maya-web --allow-host`` gives it: ``NAME`` (at the
    port the server listens on) or ``NAME:PORT`` (a proxy's port).

    Raises:
        ValueError: not a host name with an optional port (the message names it).
    """
    entry = split_host(text.strip()) if isinstance(text, str) else None
    if entry is None:
        raise ValueError(f"host {shorten(text)}; allowed: NAME or NAME:PORT (an IPv6 address in brackets)")
    return entry


@dataclass(frozen=True)
class RequestPolicy:
    """The addresses a request may name and the checks every request passes (module docstring).

    Attributes:
        hosts: ``(name, port)`` pairs (:func:`host_entry`); a ``None`` port means the port the
            server listens on.
    """

    hosts: tuple[tuple[str, int | None], ...]

    @classmethod
    def serving(cls, names: Iterable[str] = ()) -> RequestPolicy:
        """The loopback names plus ``names`` (``NAME`` or ``NAME:PORT``; raises ``ValueError``)."""
        return cls(tuple(dict.fromkeys(host_entry(name) for name in (*LOOPBACK_HOSTS, *names))))

    def check(
        self, method: str, scheme: str, host: str, server_port: str | int | None,
        origin: str | None, fetch_site: str | None,
    ) -> None:  # fmt: skip
        """Refuse a request that names a foreign host or comes from another site's page.

        Args:
            method: the HTTP method; scheme: ``http`` or ``https``; host: the ``Host`` header;
            server_port: the port the server listens on (the WSGI ``SERVER_PORT``);
            origin, fetch_site: the ``Origin`` and ``Sec-Fetch-Site`` headers (``None``: absent).

        Raises:
            ForeignHostError: ``host`` is not one of :attr:`hosts` at its port.
            CrossSiteError: a method other than :data:`SAFE_METHODS` with a foreign ``origin`` or
                a ``fetch_site`` outside :data:`SAME_SITE_FETCHES`.
        """
        named = split_host(host, scheme)
        port = named[1] if named and named[1] is not None else _DEFAULT_PORTS.get(scheme)
        if named is None or not any(
            name == named[0] and port == (wanted if wanted is not None else _port(server_port))
            for name, wanted in self.hosts
        ):
            names = ", ".join(name if wanted is None else f"{name}:{wanted}" for name, wanted in self.hosts)
            raise ForeignHostError(
                f"host {shorten(host)} is not served here; allowed: {names} (at the server's port), "
                "or a name given with maya-web --allow-host"
            )
        if method.upper() in SAFE_METHODS:
            return
        if fetch_site is not None and fetch_site.strip().lower() not in SAME_SITE_FETCHES:
            raise CrossSiteError(
                f"{method} from another site refused (Sec-Fetch-Site {shorten(fetch_site)}); only this "
                "server's own page may change games"
            )
        if origin is not None and _origin(origin) != (scheme, named[0], port):
            raise CrossSiteError(
                f"{method} from another site refused (Origin {shorten(origin)}); only this server's own "
                f"page ({scheme}://{host}) may change games"
            )


def _port(server_port: str | int | None) -> int | None:
    try:
        return int(server_port) if server_port is not None else None
    except ValueError:
        return None


def _origin(origin: str) -> tuple[str, str, int | None] | None:
    """``(scheme, name, port)`` of an ``Origin`` header (the scheme's default port filled in),
    ``None`` for ``null`` or anything that is not ``scheme://host[:port]``."""
    scheme, _, rest = origin.strip().lower().partition("://")
    named = split_host(rest, scheme) if scheme in _DEFAULT_PORTS else None
    if named is None:
        return None
    return scheme, named[0], named[1] if named[1] is not None else _DEFAULT_PORTS[scheme]


def check_json(mimetype: str, method: str, path: str) -> None:
    """Refuse a body not sent as ``Content-Type: application/json``.

    Raises:
        MediaTypeError: the message names the type sent (or its absence) and the one allowed.
    """
    if mimetype != JSON_TYPE:
        sent = shorten(mimetype) if mimetype else "none"
        raise MediaTypeError(f"{method} {path} takes a JSON body: Content-Type must be {JSON_TYPE}, got {sent}")
