"""Serving the phones at the table: this machine's LAN address, and QR codes of the app's links."""

from __future__ import annotations

import io
import ipaddress
import socket

# A private address: connect() on a UDP socket only picks the route to it, nothing is sent,
# and the socket's own address is then the one the local network reaches this machine on.
PROBE = ("10.254.254.254", 1)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on the local network, the routed one first (no internet
    needed); from the host name's addresses when there is no route. Empty when none is found."""
    found = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            found.append(probe.getsockname()[0])
    except OSError:
        try:
            found = socket.gethostbyname_ex(socket.gethostname())[2]
        except OSError:
            pass
    return [a for a in dict.fromkeys(found) if _reachable(a)]


def _reachable(address: str) -> bool:
    """An address another machine could open (not loopback, 0.0.0.0 or link-local)."""
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


def qr_svg(text: str) -> bytes:
    """``text`` as a QR code in a standalone SVG document (segno, pure Python)."""
    import segno

    out = io.BytesIO()  # a white quiet zone of 4 modules; scales to the size it is shown at
    segno.make_qr(text, error="m").save(out, kind="svg", xmldecl=False, omitsize=True,
                                        light="#fff", title=text)
    return out.getvalue()
