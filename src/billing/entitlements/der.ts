// Reads the extension OIDs of an X.509 certificate. Node's X509Certificate parses and verifies certificates
// but does not list arbitrary extensions, and App Store chains are recognised by Apple's marker extensions
// (leaf 1.2.840.113635.100.6.11.1, intermediate 1.2.840.113635.100.6.2.1). This is a read-only DER walk of
// a certificate Node has already parsed: no cryptography happens here.

interface Tlv {
  tag: number;
  /** Where the content starts and ends. */
  start: number;
  end: number;
}

function readTlv(der: Uint8Array, pos: number, limit: number): Tlv {
  if (pos + 2 > limit) throw new Error('truncated DER');
  const tag = der[pos];
  if ((tag & 0x1f) === 0x1f) throw new Error('unexpected high tag number');
  let len = der[pos + 1];
  let p = pos + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new Error('unsupported DER length');
    len = 0;
    for (let i = 0; i < n; i++) {
      if (p >= limit) throw new Error('truncated DER');
      len = len * 256 + der[p++];
    }
  }
  if (p + len > limit) throw new Error('truncated DER');
  return { tag, start: p, end: p + len };
}

function children(der: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let p = parent.start; p < parent.end; ) {
    const t = readTlv(der, p, parent.end);
    out.push(t);
    p = t.end;
  }
  return out;
}

/** Dotted form of an OID's content bytes. */
export function decodeOid(bytes: Uint8Array): string {
  const arcs: number[] = [];
  let v = 0;
  for (const b of bytes) {
    v = v * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      if (arcs.length === 0) arcs.push(v < 80 ? Math.floor(v / 40) : 2, v < 80 ? v % 40 : v - 80);
      else arcs.push(v);
      v = 0;
    }
  }
  return arcs.join('.');
}

const SEQUENCE = 0x30;
const EXTENSIONS = 0xa3; // [3] EXPLICIT in TBSCertificate
const OID = 0x06;

/** The OIDs of every extension in a DER certificate (Certificate → TBSCertificate → [3] → Extensions). */
export function extensionOids(der: Uint8Array): string[] {
  const cert = readTlv(der, 0, der.length);
  if (cert.tag !== SEQUENCE) throw new Error('not a certificate');
  const tbs = children(der, cert)[0];
  if (!tbs || tbs.tag !== SEQUENCE) throw new Error('not a certificate');
  const wrapper = children(der, tbs).find((t) => t.tag === EXTENSIONS);
  if (!wrapper) return [];
  const list = children(der, wrapper)[0];
  if (!list || list.tag !== SEQUENCE) throw new Error('malformed extensions');
  return children(der, list).map((ext) => {
    const id = children(der, ext)[0];
    if (!id || id.tag !== OID) throw new Error('malformed extension');
    return decodeOid(der.subarray(id.start, id.end));
  });
}
