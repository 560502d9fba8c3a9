#!/usr/bin/env python3
"""Makes the test-only certificates next to this script (python3 with the `cryptography` package).

Never use them outside tests: their private keys are public. Run it again to remake them all:
  ca.pem               the test certificate authority (100 years)
  server.pem, .key     localhost, 127.0.0.1 and ::1, signed by ca.pem (100 years)
  wrong-host.pem, .key only wrong-host.example, signed by ca.pem
  common-name-only.pem, .key
                       localhost in its common name only, no subjectAltName, signed by ca.pem
  expired.pem, .key    localhost and 127.0.0.1, signed by ca.pem, expired in 2001
  untrusted-ca.pem     another authority, trusted by no test
  untrusted.pem, .key  localhost and 127.0.0.1, signed by untrusted-ca.pem
  client.pem, .key     a client certificate for mutual TLS, signed by ca.pem
"""
import datetime
import ipaddress
import pathlib

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

here = pathlib.Path(__file__).resolve().parent
now = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
century = datetime.timedelta(days=36500)


def key():
    return ec.generate_private_key(ec.SECP256R1())


def name(common):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def write(stem, certificate, private_key=None):
    (here / f"{stem}.pem").write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    if private_key is not None:
        (here / f"{stem}.key").write_bytes(private_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))


def authority(common):
    private_key = key()
    certificate = (x509.CertificateBuilder()
                   .subject_name(name(common)).issuer_name(name(common))
                   .public_key(private_key.public_key()).serial_number(x509.random_serial_number())
                   .not_valid_before(now).not_valid_after(now + century)
                   .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                   .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                                content_commitment=False, key_encipherment=False,
                                                data_encipherment=False, key_agreement=False,
                                                encipher_only=False, decipher_only=False), critical=True)
                   .sign(private_key, hashes.SHA256()))
    return certificate, private_key


def leaf(common, issuer, issuer_key, names=(), addresses=(), usage=ExtendedKeyUsageOID.SERVER_AUTH,
         not_before=now, not_after=now + century):
    private_key = key()
    alternative = [x509.DNSName(n) for n in names] + [x509.IPAddress(ipaddress.ip_address(a)) for a in addresses]
    builder = (x509.CertificateBuilder()
               .subject_name(name(common)).issuer_name(issuer.subject)
               .public_key(private_key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(not_before).not_valid_after(not_after)
               .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
               .add_extension(x509.ExtendedKeyUsage([usage]), critical=False))
    if alternative:
        builder = builder.add_extension(x509.SubjectAlternativeName(alternative), critical=False)
    return builder.sign(issuer_key, hashes.SHA256()), private_key


ca, ca_key = authority("swift-bff-gateway test CA")
write("ca", ca)
write("server", *leaf("localhost", ca, ca_key, ["localhost"], ["127.0.0.1", "::1"]))
write("wrong-host", *leaf("wrong-host.example", ca, ca_key, ["wrong-host.example"]))
write("common-name-only", *leaf("localhost", ca, ca_key))
write("expired", *leaf("localhost", ca, ca_key, ["localhost"], ["127.0.0.1"],
                       not_before=datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone.utc),
                       not_after=datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)))
other, other_key = authority("swift-bff-gateway untrusted test CA")
write("untrusted-ca", other)
write("untrusted", *leaf("localhost", other, other_key, ["localhost"], ["127.0.0.1"]))
write("client", *leaf("test client", ca, ca_key, usage=ExtendedKeyUsageOID.CLIENT_AUTH))
