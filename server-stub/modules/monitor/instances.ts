// Several instances sharing one DATA_DIR (INSTANCE_ID): each records itself in
// DATA_DIR/logs/instances/<id>.json — its id, the addresses it is known by, when it was last seen — so that
// the log monitor's "server ip" filter can pick that instance's files. Each instance writes only its own
// record, as a temp file renamed over the old one: no two writers share a file, no reader sees half a record.
// A record is trusted for nothing but an id matching INSTANCE_ID_PATTERN: the request's text is only ever
// compared with recorded addresses, never put into a path.
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { INSTANCE_ID_PATTERN } from '../../config.js';

export interface InstanceRecord {
  id: string;
  /** Normalised IP addresses (see normalizeAddress). */
  addresses: string[];
  /** Epoch milliseconds of the last write. */
  lastSeen: number;
}

/** How often a running instance rewrites its record (lastSeen). */
export const REFRESH_MS = 60_000;
/** A record file larger than this, or more records than this, is not read: the lookup stays cheap. */
const MAX_RECORD_BYTES = 16 * 1024;
const MAX_RECORDS = 256;
const MAX_ADDRESSES = 64;
const RECORD_NAME = /^([A-Za-z0-9_-]{1,32})\.json$/;

export const registryDir = (dataDir: string) => path.join(dataDir, 'logs', 'instances');

/**
 * An IP address as compared: lower case, no IPv6 zone, IPv6 in its shortest form (the URL parser's), an
 * IPv4-mapped IPv6 address as plain IPv4; '' when it is not an IP address.
 */
export function normalizeAddress(a: string): string {
  let t = a.trim().toLowerCase();
  const zone = t.indexOf('%');
  if (zone >= 0) t = t.slice(0, zone);
  if (net.isIPv4(t)) return t;
  if (!net.isIPv6(t)) return '';
  t = new URL(`http://[${t}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(t);
  if (!mapped) return t;
  const [hi, lo] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** This host's interface addresses: external ones and loopback (os.networkInterfaces()). */
export function interfaceAddresses(): string[] {
  const out = new Set<string>();
  for (const list of Object.values(os.networkInterfaces())) for (const i of list ?? []) {
    const a = normalizeAddress(i.address);
    if (a) out.add(a);
  }
  return [...out];
}

/** Writes this instance's record (temp file + rename, mode 0600). */
export async function recordInstance(dataDir: string, id: string, addresses: string[]): Promise<void> {
  if (!INSTANCE_ID_PATTERN.test(id)) throw new Error('INSTANCE_ID');
  const dir = registryDir(dataDir);
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const rec: InstanceRecord = { id, addresses: [...new Set(addresses.map(normalizeAddress).filter(Boolean))], lastSeen: Date.now() };
  // the leading dot keeps a temp file out of the lookup (RECORD_NAME)
  const tmp = path.join(dir, `.${id}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await fsp.writeFile(tmp, JSON.stringify(rec), { mode: 0o600 });
    await fsp.rename(tmp, path.join(dir, `${id}.json`));
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    throw e;
  }
}

/** One record file, or null when it is too large, not JSON, or not a record of the id its name says. */
async function readRecord(file: string, nameId: string): Promise<InstanceRecord | null> {
  let fh: fsp.FileHandle | undefined;
  try {
    fh = await fsp.open(file, 'r');
    const buf = Buffer.alloc(MAX_RECORD_BYTES + 1);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    if (bytesRead > MAX_RECORD_BYTES) return null;
    const o = JSON.parse(buf.subarray(0, bytesRead).toString('utf8'));
    if (!o || typeof o !== 'object' || o.id !== nameId || !INSTANCE_ID_PATTERN.test(o.id) || !Array.isArray(o.addresses)) return null;
    const addresses = o.addresses.slice(0, MAX_ADDRESSES).filter((a: unknown): a is string => typeof a === 'string').map(normalizeAddress).filter(Boolean);
    return { id: o.id, addresses, lastSeen: Number.isFinite(o.lastSeen) ? o.lastSeen : 0 };
  } catch {
    return null;
  } finally {
    await fh?.close();
  }
}

/** The recorded instances of this DATA_DIR (none when the folder does not exist). */
export async function readRegistry(dataDir: string): Promise<InstanceRecord[]> {
  const dir = registryDir(dataDir);
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return [];
  }
  const ids = names.map((n) => RECORD_NAME.exec(n)?.[1]).filter((x): x is string => !!x).slice(0, MAX_RECORDS);
  const recs = await Promise.all(ids.map((id) => readRecord(path.join(dir, `${id}.json`), id)));
  return recs.filter((r): r is InstanceRecord => r !== null);
}

/**
 * The instance known by `ip`, or undefined. Several instances can share an address (loopback, one host):
 * the asking instance wins, then the one seen last.
 */
export function instanceAt(records: InstanceRecord[], ip: string, selfId: string): InstanceRecord | undefined {
  const a = normalizeAddress(ip);
  if (!a) return undefined;
  const hits = records.filter((r) => r.addresses.includes(a));
  return hits.find((r) => r.id === selfId) ?? hits.sort((x, y) => y.lastSeen - x.lastSeen)[0];
}
