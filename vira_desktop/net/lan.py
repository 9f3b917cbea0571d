"""LAN discovery: a host announces each of its tables by mDNS / DNS-SD (zeroconf), and
``vira join --list`` browses for them a few seconds and prints what it found.

A table is a service of type ``_vira._tcp.local.`` named ``CODE at HOST:PORT`` (unique on a
LAN where several hosts use the same prefix), at the host's address and port, with a TXT
record of the protocol version, the table code, the seats still free and whether the host
speaks TLS. What a browse finds comes from anyone on the LAN: it is checked as strictly as
a message (:meth:`TableAd.read`) and shown as plain text.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from .protocol import PROTOCOL, valid_code

__all__ = ["SERVICE", "Announcer", "TableAd", "browse", "lan_address", "lan_addresses"]

log = logging.getLogger("vira-host")

SERVICE = "_vira._tcp.local."
RESOLVE_MS = 1500  # the most a browse waits for one table's address and TXT


@dataclass(frozen=True)
class TableAd:
    """One table as announced: where to join it and how full it is."""

    code: str
    address: str  # the host's IP address
    port: int
    free: int  # seats a new player may still take (0: in play, or full)
    tls: bool = False
    protocol: int = PROTOCOL

    @property
    def url(self) -> str:
        host = f"[{self.address}]" if ":" in self.address else self.address
        return f"{'wss' if self.tls else 'ws'}://{host}:{self.port}/{self.code}"

    def txt(self) -> dict[str, str]:
        """The TXT record."""
        return {"protocol": str(self.protocol), "table": self.code, "free": str(self.free), "tls": str(int(self.tls))}

    @classmethod
    def read(cls, txt: Mapping[bytes, bytes | None], addresses: Iterable[str], port: int | None) -> TableAd | None:
        """A table from an announcement's TXT record, addresses and port; ``None`` when any
        of it is not a Vira table's (a bad record is skipped, never raised).

        >>> TableAd.read({b"protocol": b"1", b"table": b"v-1", b"free": b"2", b"tls": b"0"}, ["10.0.0.5"], 8417)
        TableAd(code='v-1', address='10.0.0.5', port=8417, free=2, tls=False, protocol=1)
        >>> TableAd.read({b"table": b"\\x1b[2J"}, ["10.0.0.5"], 8417) is None
        True
        """
        try:
            fields = {k.decode(): (v or b"").decode() for k, v in txt.items()}
            code, free, protocol = fields["table"], int(fields["free"]), int(fields["protocol"])
            tls = fields.get("tls", "0") == "1"
        except (KeyError, ValueError, UnicodeDecodeError):
            return None
        address = next(iter(addresses), None)
        if not valid_code(code) or not 0 <= free <= 4 or address is None or port is None or not 0 < port < 65536:
            return None
        return cls(code, address, port, free, tls, protocol)


class Announcer:
    """A host's tables on the LAN: :meth:`show` what stands now, :meth:`close` withdraws them.
    ``interfaces``: the addresses to announce on and from (the host's ``--bind``; all for
    ``0.0.0.0`` or ``::``)."""

    def __init__(self, bind: str, port: int, tls: bool) -> None:
        self.port = port
        self.tls = tls
        everywhere = bind in ("0.0.0.0", "::", "")
        self.addresses = _own_addresses() if everywhere else [bind]
        self.zc = AsyncZeroconf(interfaces=["0.0.0.0"] if everywhere else [bind], ip_version=IPVersion.V4Only)
        self.shown: dict[str, tuple[AsyncServiceInfo, int]] = {}  # code -> (its service, seats free told)
        self.name = socket.gethostname().split(".")[0] or "vira"

    async def show(self, tables: Mapping[str, int]) -> None:
        """Announce each table ``code -> seats free`` as it stands; withdraw those gone."""
        for code in [c for c in self.shown if c not in tables]:
            await self.zc.async_unregister_service(self.shown.pop(code)[0])
        for code, free in tables.items():
            told = self.shown.get(code)
            if told is not None and told[1] == free:
                continue
            ad = TableAd(code, self.addresses[0], self.port, free, self.tls)
            info = AsyncServiceInfo(
                SERVICE,
                f"{code} at {self.name}:{self.port}.{SERVICE}",
                addresses=[socket.inet_aton(a) for a in self.addresses],
                port=self.port,
                properties=ad.txt(),
                server=f"{self.name}.local.",
            )
            if told is None:
                await self.zc.async_register_service(info, allow_name_change=True)
            else:
                await self.zc.async_update_service(info)
            self.shown[code] = (info, free)

    async def close(self) -> None:
        with contextlib.suppress(Exception):  # best effort: the host is stopping either way
            await self.zc.async_unregister_all_services()
        await self.zc.async_close()


def lan_address() -> str:
    """This machine's first IPv4 address on a network (127.0.0.1 when it has none)."""
    return _own_addresses()[0]


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks, the likeliest for a friend on the LAN
    first: private ones (192.168.x.x, 10.x.x.x, 172.16-31.x.x), then the others, a link-local
    one (169.254.x.x: no address was given out) last; 127.0.0.1 when it has none.

    >>> sorted(["169.254.3.4", "8.8.4.4", "192.168.1.5"], key=_likeliest)
    ['192.168.1.5', '8.8.4.4', '169.254.3.4']
    """
    return sorted(_own_addresses(), key=_likeliest)


def _likeliest(address: str) -> int:
    ip = ipaddress.ip_address(address)
    return 2 if ip.is_link_local else 0 if ip.is_private else 1


def _own_addresses() -> list[str]:
    """This machine's IPv4 addresses to announce (loopback only when there is nothing else)."""
    import ifaddr

    found = [
        str(ip.ip)
        for adapter in ifaddr.get_adapters()
        for ip in adapter.ips
        if isinstance(ip.ip, str) and not ip.ip.startswith("127.")
    ]
    return found or ["127.0.0.1"]


async def browse(seconds: float, interface: str | None = None) -> list[TableAd]:
    """The tables announced on the LAN (``interface``: browse only there), found within
    ``seconds``, by code and address."""
    zc = AsyncZeroconf(interfaces=[interface] if interface else ["0.0.0.0"], ip_version=IPVersion.V4Only)
    names: set[str] = set()

    def seen(zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        if state_change is not ServiceStateChange.Removed:
            names.add(name)

    browser = AsyncServiceBrowser(zc.zeroconf, [SERVICE], handlers=[seen])
    try:
        await asyncio.sleep(seconds)
        infos = [AsyncServiceInfo(SERVICE, name) for name in sorted(names)]
        await asyncio.gather(*(info.async_request(zc.zeroconf, RESOLVE_MS) for info in infos))
    finally:
        await browser.async_cancel()
        await zc.async_close()
    ads = (TableAd.read(info.properties, info.parsed_addresses(), info.port) for info in infos)
    return sorted({ad for ad in ads if ad is not None}, key=lambda ad: (ad.code, ad.address, ad.port))
