"""A software authenticator for the passkey tests: an ECDSA P-256 key pair from the
``cryptography`` library, answering registration options with a ``none`` attestation and
sign-in options with a signed assertion, in the JSON a browser sends (WebAuthn level 3,
section 6: authenticator data, then the signature over it and the client data's hash).
Its answers can be changed before they are sent, to play a dishonest browser."""

from __future__ import annotations

import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.encode_cbor import encode_cbor

UP, UV, AT = 0x01, 0x04, 0x40  # authenticator data flags: user present, verified, attested


def _b64(data: bytes) -> str:
    return bytes_to_base64url(data)


@dataclass
class SoftAuthenticator:
    """One passkey, as a browser and its authenticator would hold it."""

    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    credential_id: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    sign_count: int = 0
    user_handle: bytes = b""

    def _cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return encode_cbor(
            {
                1: 2,  # kty: EC2
                3: -7,  # alg: ES256
                -1: 1,  # crv: P-256
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )

    def _auth_data(self, rp_id: str, flags: int, attested: bool) -> bytes:
        data = hashlib.sha256(rp_id.encode()).digest()
        data += bytes([flags | (AT if attested else 0)]) + struct.pack(">I", self.sign_count)
        if attested:
            data += bytes(16)  # AAGUID: none said
            data += struct.pack(">H", len(self.credential_id)) + self.credential_id
            data += self._cose_key()
        return data

    @staticmethod
    def _client_data(kind: str, challenge: str, origin: str) -> bytes:
        return json.dumps(
            {"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False}
        ).encode()

    def create(self, options: dict[str, Any], origin: str) -> dict[str, Any]:
        """The answer to ``navigator.credentials.create(options)`` on a page of ``origin``."""
        self.user_handle = base64url_to_bytes(options["user"]["id"])
        auth = self._auth_data(options["rp"]["id"], UP | UV, attested=True)
        attestation = encode_cbor({"fmt": "none", "attStmt": {}, "authData": auth})
        cid = _b64(self.credential_id)
        return {
            "id": cid,
            "rawId": cid,
            "type": "public-key",
            "response": {
                "clientDataJSON": _b64(
                    self._client_data("webauthn.create", options["challenge"], origin)
                ),
                "attestationObject": _b64(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
        }

    def get(self, options: dict[str, Any], origin: str, rp_id: str = "") -> dict[str, Any]:
        """The answer to ``navigator.credentials.get(options)`` on a page of ``origin``
        (for the RP id of the options unless ``rp_id`` is given); each answer counts up."""
        self.sign_count += 1
        auth = self._auth_data(rp_id or options["rpId"], UP | UV, attested=False)
        client = self._client_data("webauthn.get", options["challenge"], origin)
        signature = self.key.sign(auth + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        cid = _b64(self.credential_id)
        return {
            "id": cid,
            "rawId": cid,
            "type": "public-key",
            "response": {
                "clientDataJSON": _b64(client),
                "authenticatorData": _b64(auth),
                "signature": _b64(signature),
                "userHandle": _b64(self.user_handle),
            },
            "clientExtensionResults": {},
        }
