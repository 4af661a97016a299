"""Which address a request to the console comes from, for the failed-login delay and the logs.

The peer of the TCP connection, except where that peer is one of `console.trusted_proxies` (addresses or
networks, e.g. `127.0.0.1` or `10.0.0.0/24`: the reverse proxy in front of the console): then the
`X-Forwarded-For` header says who the proxy serves, read from its right end (the address the proxy itself added)
leftwards past any further trusted proxies. A header from anyone else is ignored: a browser cannot choose the
address it is counted under.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(entries: Iterable[str]) -> list[Network]:
    """`console.trusted_proxies` as networks (a single address is a /32 or /128); ValueError names a bad one."""
    out = []
    for entry in entries:
        try:
            out.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            raise ValueError(f"console.trusted_proxies: {entry!r} is not an address or a network") from None
    return out


def _trusted(address: str, proxies: list[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in proxies)


def client_address(peer: str | None, forwarded_for: str | None, proxies: list[Network]) -> str:
    """The client's address: the peer, or (from a trusted proxy) the nearest untrusted X-Forwarded-For entry."""
    peer = peer or "?"
    if not forwarded_for or not _trusted(peer, proxies):
        return peer
    hops = [h.strip() for h in forwarded_for.split(",") if h.strip()]
    for hop in reversed(hops):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            return peer  # a hop that is no address: the header cannot be followed further than the proxy
        if not _trusted(hop, proxies):
            return hop
    return hops[0] if hops else peer
