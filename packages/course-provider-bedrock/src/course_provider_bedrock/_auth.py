"""How a ConverseStream request proves who sends it: AWS SigV4 by botocore, or a Bedrock API key.

The signature is botocore's (`botocore.auth.SigV4Auth`), with credentials
from botocore's usual chain (the environment, the shared files, a profile,
an assumed role, the instance or container metadata), session tokens
included: nothing of the algorithm is written here. A Bedrock API key
(``AWS_BEARER_TOKEN_BEDROCK``) is sent as ``Authorization: Bearer`` instead,
unsigned. botocore logs the canonical request (signed headers, session token
included) at debug level: its ``botocore.auth`` logger gets a filter that
drops those records, so the signing material reaches no log.

botocore is the ``sigv4`` extra (``course-provider-bedrock[sigv4]``): signing
is its only use, so the grammar, the framing and a replay need none of it,
and it is imported at the first signed call. A live call with neither a
Bedrock API key nor botocore fails with ``VENDOR_MISSING_API_KEY`` naming the
extra.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from course_http import VendorError, VendorErrorCode
from course_provider_bedrock._wire import SIGNING_SERVICE, WIRE
from course_vendor import checked_api_key

if TYPE_CHECKING:
    from botocore.credentials import ReadOnlyCredentials

__all__ = [
    "SIGNED_HEADERS",
    "SIGV4_EXTRA",
    "chain_credentials",
    "request_headers",
    "signed_headers",
]

SIGV4_EXTRA: Final = "course-provider-bedrock[sigv4]"
"""What to install to sign calls with AWS credentials: this package with botocore."""

SIGNED_HEADERS: Final = frozenset({"authorization", "x-amz-date", "x-amz-security-token"})
"""The headers a signature adds: they change on every call, and the first and last are secret."""


class _NoSigningRecords(logging.Filter):
    """Drops botocore's debug records of what it signs (canonical request, string to sign)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(("CanonicalRequest", "StringToSign", "Signature"))


logging.getLogger("botocore.auth").addFilter(_NoSigningRecords())


def request_headers(api_key: str) -> dict[str, str]:
    """The headers of a call made with the Bedrock API key ``api_key`` (a bearer token).

    Raises ``course_vendor.VendorConfigError`` ``VENDOR_INVALID_API_KEY``
    (path ``api_key``) when ``api_key`` is not a usable key
    (``course_vendor.checked_api_key``); the key itself never appears in a message.
    """
    return {"authorization": f"Bearer {checked_api_key(api_key)}"}


def chain_credentials() -> ReadOnlyCredentials:
    """The credentials botocore's default chain finds now, frozen (key, secret, token).

    Raises `VendorError` ``VENDOR_MISSING_API_KEY`` when the chain finds
    none (neither ``AWS_BEARER_TOKEN_BEDROCK`` nor AWS credentials are set),
    or when botocore is not installed (the message names `SIGV4_EXTRA`).
    """
    try:
        from botocore.session import get_session
    except ImportError:
        raise VendorError(
            VendorErrorCode.VENDOR_MISSING_API_KEY,
            "no Bedrock API key (AWS_BEARER_TOKEN_BEDROCK) and no signer: signing with AWS "
            f"credentials needs botocore, installed by {SIGV4_EXTRA}",
            vendor=WIRE,
        ) from None
    found = get_session().get_credentials()
    if found is None:
        raise VendorError(
            VendorErrorCode.VENDOR_MISSING_API_KEY,
            "no AWS credentials: set AWS_BEARER_TOKEN_BEDROCK, or credentials botocore "
            "finds (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, a role)",
            vendor=WIRE,
        )
    frozen: ReadOnlyCredentials = found.get_frozen_credentials()
    return frozen


def signed_headers(
    url: str,
    body: bytes,
    headers: Mapping[str, str],
    *,
    credentials: ReadOnlyCredentials,
    region: str,
    method: str = "POST",
    service: str = SIGNING_SERVICE,
) -> dict[str, str]:
    """``headers`` and the SigV4 headers of a ``method`` call of ``url`` sending ``body``.

    botocore signs the host, ``x-amz-date`` (now), the session token when
    the credentials have one, and every header of ``headers``, for
    ``service`` in ``region``; the result adds ``authorization``,
    ``x-amz-date`` and ``x-amz-security-token`` (the names lower-cased).
    Raises what botocore raises for credentials it cannot sign with, and
    ``ImportError`` when botocore is not installed (`SIGV4_EXTRA`).
    """
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest

    request = AWSRequest(method=method, url=url, data=body, headers=dict(headers))
    SigV4Auth(credentials, service, region).add_auth(request)
    return {name.lower(): value for name, value in request.headers.items()}
