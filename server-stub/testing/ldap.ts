// A real LDAP server (ldapjs 3) shaped like Active Directory, for tests of "sign in with the company's identity":
// users and groups under DC=corp,DC=example built from a map the test may change between requests, binds by DN,
// userPrincipalName or CORP\sam, AD's result codes, and LDAPS and StartTLS when openssl can make a certificate.
// Test-only code: tests start it in-process and speak to it over real TCP.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { BerReader } from '@ldapjs/asn1';
import { ExtensionResponse } from '@ldapjs/messages';
import os from 'node:os';
import path from 'node:path';
import ldap from 'ldapjs';

export interface LdapUser {
  sam: string;
  cn: string;
  password: string;
  displayName: string;
  mail?: string;
  phone?: string;
  /** group CNs */
  groups: string[];
}

export interface TestLdap {
  /** ldap://127.0.0.1:<port> */
  url: string;
  /** ldaps://127.0.0.1:<port2> when TLS could be set up (self-signed certificate, trust it with `ca`) */
  ldapsUrl?: string;
  /** ldap://127.0.0.1:<port3> that speaks TLS after StartTLS (the same certificate) */
  startTlsUrl?: string;
  /** PEM of the LDAPS certificate */
  ca?: string;
  /** 'DC=corp,DC=example' */
  baseDn: string;
  /** the service account's DN */
  bindDn: string;
  bindPassword: string;
  /** by sam; tests mutate groups */
  users: Map<string, LdapUser>;
  /** 'CN=<cn>,OU=Users,DC=corp,DC=example' */
  userDn(sam: string): string;
  close(): Promise<void>;
}

const BASE_DN = 'DC=corp,DC=example';
const NETBIOS_DOMAIN = 'CORP';
const UPN_SUFFIX = 'corp.example';
const SERVICE_SAM = 'svc-console';
const USERS_OU = `OU=Users,${BASE_DN}`;
const GROUPS_OU = `OU=Groups,${BASE_DN}`;
const SERVICE_OU = `OU=Service,${BASE_DN}`;
// result codes, each with AD's diagnostic message (a client may parse it: data 52e = unknown user or wrong password)
const INVALID_CREDENTIALS = 49;
const AD_INVALID_CREDENTIALS = '80090308: LdapErr: DSID-0C090447, comment: AcceptSecurityContext error, data 52e, v3839';
const INSUFFICIENT_ACCESS_RIGHTS = 50;
const AD_BIND_FIRST = '000004DC: LdapErr: DSID-0C090A5C, comment: In order to perform this operation a successful bind must be completed on the connection., data 0, v3839';
const NO_SUCH_OBJECT = 32;
const AD_NO_OBJECT = '0000208D: NameErr: DSID-0310021B, problem 2001 (NO_OBJECT), data 0, best match of:\n\t';
/** the attributes holding DNs: compared as DNs (spacing and case do not matter), as AD does */
const DN_ATTRIBUTES = new Set(['distinguishedname', 'member', 'memberof', 'objectcategory']);
const MATCHING_RULE_IN_CHAIN = '1.2.840.113556.1.4.1941';
const MATCHING_RULE_BIT_AND = '1.2.840.113556.1.4.803';
const MATCHING_RULE_BIT_OR = '1.2.840.113556.1.4.804';

interface Entry {
  dn: string;
  /** attribute name as AD spells it → values */
  attributes: Record<string, string[]>;
}

// --- the parts of ldapjs 3's server objects used here (@types/ldapjs describes the 2.x API)

interface LdapConnection extends net.Socket {
  parser: NodeJS.EventEmitter;
}
interface LdapRequest {
  type: string;
  messageId: number;
  connection: LdapConnection;
  dn: { toString(): string };
  log: unknown;
}
interface BindRequest extends LdapRequest {
  name: string;
  credentials: string;
  controls: unknown[];
}
interface SearchRequest extends LdapRequest {
  /** 0 base, 1 one level, 2 subtree */
  scope: number;
  filter: Filter;
  attributes: string[];
  typesOnly: boolean;
}
interface Filter {
  type: string;
  attribute?: string;
  value?: string;
  filters?: Filter[];
  filter?: Filter;
  subInitial?: string;
  subAny?: string[];
  subFinal?: string;
  matchingRule?: string;
}
interface LdapResponse {
  messageId: number;
  diagnosticMessage: string;
  send(entry: unknown): void;
  end(status?: number): void;
}
interface LdapServer {
  newConnection(conn: net.Socket): void;
  bind(dn: string, handler: (req: BindRequest, res: LdapResponse) => void): void;
  search(dn: string, handler: (req: SearchRequest, res: LdapResponse) => void): void;
  listen(port: number, host: string, cb: () => void): void;
  address(): net.AddressInfo;
  close(cb: () => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
  once(event: 'error', listener: (err: Error) => void): void;
  off(event: 'error', listener: (err: Error) => void): void;
}
/** ldapjs 3's message classes as used here: @types/ldapjs lacks BindRequest and gives SearchEntry no constructor. */
const messages = ldap as unknown as {
  BindRequest: new (init: { messageId: number; name: string; credentials: string; controls: unknown[] }) => LdapRequest;
  SearchEntry: new (init: { messageId: number; objectName: object; attributes: ldap.Attribute[] }) => object;
};

export async function startLdap(opts: { users: LdapUser[]; port?: number }): Promise<TestLdap> {
  const users = new Map(opts.users.map((u) => [u.sam, u]));
  const bindPassword = `Svc#${randomBytes(9).toString('base64url')}`;
  const bindDn = `CN=${SERVICE_SAM},${SERVICE_OU}`;
  const userDn = (sam: string) => {
    const user = users.get(sam);
    if (!user) throw new Error(`no LDAP user ${sam}`);
    return `CN=${escapeRdnValue(user.cn)},${USERS_OU}`;
  };

  /** The whole tree, from the current map (a test's change is seen by the next request). */
  function directory(): Entry[] {
    const groupMembers = new Map<string, string[]>();
    for (const u of users.values()) for (const g of u.groups) groupMembers.set(g, [...(groupMembers.get(g) ?? []), userDn(u.sam)]);
    const groupDn = (cn: string) => `CN=${escapeRdnValue(cn)},${GROUPS_OU}`;
    const person = (dn: string, cn: string, sam: string, extra: Record<string, string[]>): Entry => ({
      dn,
      attributes: {
        objectClass: ['top', 'person', 'organizationalPerson', 'user'],
        objectCategory: [`CN=Person,CN=Schema,CN=Configuration,${BASE_DN}`],
        cn: [cn],
        name: [cn],
        distinguishedName: [dn],
        sAMAccountName: [sam],
        userPrincipalName: [`${sam}@${UPN_SUFFIX}`],
        // 512: a normal, enabled account (filters often exclude disabled ones with the bit-AND rule on 2)
        userAccountControl: ['512'],
        ...extra,
      },
    });
    const container = (dn: string, ou: string): Entry => ({ dn, attributes: { objectClass: ['top', 'organizationalUnit'], ou: [ou], name: [ou], distinguishedName: [dn] } });
    return [
      { dn: BASE_DN, attributes: { objectClass: ['top', 'domain', 'domainDNS'], dc: ['corp'], name: ['corp'], distinguishedName: [BASE_DN] } },
      container(USERS_OU, 'Users'),
      container(GROUPS_OU, 'Groups'),
      container(SERVICE_OU, 'Service'),
      person(bindDn, SERVICE_SAM, SERVICE_SAM, { displayName: ['数据服务控制台服务账号'] }),
      ...[...users.values()].map((u) =>
        person(userDn(u.sam), u.cn, u.sam, {
          displayName: [u.displayName],
          ...(u.mail ? { mail: [u.mail] } : {}),
          ...(u.phone ? { telephoneNumber: [u.phone] } : {}),
          ...(u.groups.length ? { memberOf: u.groups.map(groupDn) } : {}),
        }),
      ),
      ...[...groupMembers].map(([cn, members]) => ({
        dn: groupDn(cn),
        attributes: {
          objectClass: ['top', 'group'],
          objectCategory: [`CN=Group,CN=Schema,CN=Configuration,${BASE_DN}`],
          cn: [cn],
          name: [cn],
          sAMAccountName: [cn],
          distinguishedName: [groupDn(cn)],
          member: members,
        },
      })),
    ];
  }

  /** Who may bind, by the name forms AD takes: a DN, sam@corp.example or CORP\sam (case-insensitive). */
  function account(name: string): { dn: string; password: string } | undefined {
    const accounts = [{ sam: SERVICE_SAM, dn: bindDn, password: bindPassword }, ...[...users.values()].map((u) => ({ sam: u.sam, dn: userDn(u.sam), password: u.password }))];
    const lower = name.toLowerCase();
    const downLevel = /^([^\\]+)\\(.+)$/.exec(lower);
    if (downLevel) return downLevel[1] === NETBIOS_DOMAIN.toLowerCase() ? accounts.find((a) => a.sam.toLowerCase() === downLevel[2]) : undefined;
    if (!lower.includes('=')) return accounts.find((a) => `${a.sam}@${UPN_SUFFIX}`.toLowerCase() === lower);
    const wanted = normalizeDn(name);
    return accounts.find((a) => normalizeDn(a.dn) === wanted);
  }

  // the identity each connection has bound as (none: anonymous)
  const boundAs = new WeakMap<net.Socket, string>();
  const sockets = new Set<net.Socket>();

  /**
   * Every connection, plain or TLS, comes through here. ldapjs parses a bind's name as a DN before any handler
   * runs and answers invalidDNSyntax for `sam@corp.example` or `CORP\sam`, so a bind by such a name is handed to
   * ldapjs as a bind by the account's DN (or by a DN nobody has, to fail as AD does).
   */
  function accept(server: LdapServer, conn: LdapConnection): void {
    sockets.add(conn);
    conn.on('close', () => sockets.delete(conn));
    server.newConnection(conn);
    const [dispatch] = conn.parser.listeners('message') as Array<(req: LdapRequest) => void>;
    conn.parser.removeAllListeners('message');
    conn.parser.on('message', (req: LdapRequest) => {
      if (req.type !== 'BindRequest') return dispatch(req);
      // any bind, even a failed one, first drops the identity the connection had (RFC 4511 4.2.1)
      boundAs.delete(conn);
      const bind = req as BindRequest;
      const name = String(bind.name ?? '');
      if (name === '' || name.includes('=')) return dispatch(req);
      const dn = account(name)?.dn ?? `CN=${escapeRdnValue(name)},CN=Unknown,${BASE_DN}`;
      const byDn = new messages.BindRequest({ messageId: bind.messageId, name: dn, credentials: bind.credentials, controls: bind.controls });
      // the parser hangs its logger on each message; ldapjs's responses expect it
      dispatch(Object.assign(byDn, { log: bind.log }));
    });
  }

  function routes(server: LdapServer): void {
    // '' catches every DN, so a bind by an unknown DN gets invalidCredentials (49) like AD, not noSuchObject (32)
    server.bind('', (req, res) => {
      const password = String(req.credentials ?? '');
      // a name with an empty password is an "unauthenticated bind" (RFC 4513 5.1.2): AD answers success and the
      // connection stays anonymous, which is why a client must refuse empty passwords itself
      if (password === '') return res.end();
      const who = account(String(req.dn));
      if (!who || who.password !== password) return fail(res, INVALID_CREDENTIALS, AD_INVALID_CREDENTIALS);
      boundAs.set(req.connection, who.dn);
      res.end();
    });
    server.search('', (req, res) => {
      const base = normalizeDn(String(req.dn));
      // the root DSE answers anyone, as on AD: it says where the directory starts
      if (base === '' && req.scope === 0) {
        const rootDse: Entry = {
          dn: '',
          attributes: { objectClass: ['top'], defaultNamingContext: [BASE_DN], namingContexts: [BASE_DN], supportedLDAPVersion: ['3'], dnsHostName: ['dc01.corp.example'] },
        };
        if (matches(req.filter, rootDse)) res.send(searchEntry(res, rootDse, req));
        return res.end();
      }
      if (!boundAs.has(req.connection)) return fail(res, INSUFFICIENT_ACCESS_RIGHTS, AD_BIND_FIRST);
      const entries = directory();
      if (!entries.some((e) => normalizeDn(e.dn) === base)) return fail(res, NO_SUCH_OBJECT, `${AD_NO_OBJECT}'${BASE_DN}'`);
      for (const e of entries) if (inScope(normalizeDn(e.dn), base, req.scope) && matches(req.filter, e)) res.send(searchEntry(res, e, req));
      res.end();
    });
  }

  const servers: LdapServer[] = [];
  async function listen(port: number, tls?: { certificate: string; key: string }): Promise<number> {
    // connectionRouter is ldapjs's hook for each new socket (not in @types/ldapjs)
    const server: LdapServer = ldap.createServer({ ...tls, connectionRouter: (conn: LdapConnection) => accept(server, conn) } as never) as unknown as LdapServer;
    routes(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    // ldapjs emits 'error' for bytes that are not LDAP; without a listener that would end the test process
    server.on('error', (err) => console.error('[test ldap]', err));
    servers.push(server);
    return server.address().port;
  }

  const port = await listen(opts.port ?? 0);
  const certs = selfSignedCertificate();
  const ldapsPort = certs ? await listen(0, certs) : undefined;
  const front = certs ? await startTlsFront(port, certs) : undefined;

  return {
    url: `ldap://127.0.0.1:${port}`,
    ldapsUrl: ldapsPort ? `ldaps://127.0.0.1:${ldapsPort}` : undefined,
    startTlsUrl: front ? `ldap://127.0.0.1:${front.port}` : undefined,
    ca: certs?.certificate,
    baseDn: BASE_DN,
    bindDn,
    bindPassword,
    users,
    userDn,
    close: async () => {
      // ldapjs's close waits for every client to hang up; a client that never unbinds would hold the test open
      for (const s of sockets) s.destroy();
      front?.close();
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}

/**
 * Ends a request with a result code and message. Not next(new ldap.XxxError(message)): ldapjs 3 puts that message
 * in a field its result messages no longer write (errorMessage, now diagnosticMessage), so clients would get none.
 */
function fail(res: LdapResponse, code: number, message: string): void {
  res.diagnosticMessage = message;
  res.end(code);
}

const START_TLS = '1.3.6.1.4.1.1466.20037';

/**
 * StartTLS in front of the directory (ldapjs's server has no StartTLS): a plain listener whose client's first message
 * must be the StartTLS extended request; it is answered with success, the connection turns TLS (the certificate
 * given), and what comes through it goes on to the directory's plain port. Anything else first: hung up.
 */
async function startTlsFront(plainPort: number, certs: { certificate: string; key: string }): Promise<{ port: number; close: () => void }> {
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    client.once('data', (first: Buffer) => {
      let id = 0;
      let name = '';
      try {
        // LDAPMessage ::= SEQUENCE { messageID, [APPLICATION 23] ExtendedRequest { [0] requestName } }
        const r = new BerReader(first);
        r.readSequence();
        id = r.readInt() ?? 0;
        r.readSequence(0x77);
        name = r.readString(0x80) ?? '';
      } catch {
        name = '';
      }
      if (name !== START_TLS) return void client.destroy();
      client.write(new ExtensionResponse({ messageId: id, status: 0, responseName: START_TLS }).toBer().buffer);
      const secure = new tls.TLSSocket(client, { isServer: true, cert: certs.certificate, key: certs.key });
      const directory = net.connect(plainPort, '127.0.0.1');
      open.add(directory);
      const end = () => {
        secure.destroy();
        directory.destroy();
      };
      secure.on('error', end);
      directory.on('error', end);
      secure.on('close', end);
      directory.on('close', end);
      secure.pipe(directory).pipe(secure);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      for (const s of open) s.destroy();
      server.close();
    },
  };
}

/** A self-signed certificate for 127.0.0.1 and localhost, or undefined when openssl is not there. */
function selfSignedCertificate(): { certificate: string; key: string } | undefined {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'test-ldaps-'));
  try {
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
      { stdio: 'ignore', timeout: 30_000 },
    );
    return { certificate: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A DN in one comparable form: ldapjs's rendering (no spaces after commas, specials and non-ASCII hex-escaped, so
 * a ',' is always a separator) lowercased, since AD compares DNs without case. '' for the root.
 */
function normalizeDn(dn: string): string {
  try {
    return ldap.parseDN(dn).toString().toLowerCase();
  } catch {
    return dn.trim().toLowerCase();
  }
}

function inScope(entry: string, base: string, scope: number): boolean {
  if (entry === base) return scope !== 1;
  if (scope === 0 || !entry.endsWith(`,${base}`)) return false;
  return scope === 2 || !entry.slice(0, -base.length - 1).includes(',');
}

/**
 * The search filter against an entry as AD evaluates it: attribute names and values without case, DN-valued
 * attributes as DNs, objectCategory=person as short for the Person class, and AD's matching rules (in-chain, which
 * here is plain membership as there are no nested groups, and the bit-AND / bit-OR rules). ldapjs's own
 * `filter.matches` compares values with case and throws on any extensible match, so the tree is walked here.
 */
function matches(filter: Filter, entry: Entry): boolean {
  const values = (name = '') => Object.entries(entry.attributes).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1] ?? [];
  const attribute = (filter.attribute ?? '').toLowerCase();
  const wanted = filter.value ?? '';
  const equal = (v: string) => {
    if (attribute === 'objectcategory' && !wanted.includes('=')) return /^cn=([^,]*)/i.exec(v)?.[1].toLowerCase() === wanted.toLowerCase();
    return DN_ATTRIBUTES.has(attribute) ? normalizeDn(v) === normalizeDn(wanted) : v.toLowerCase() === wanted.toLowerCase();
  };
  switch (filter.type) {
    case 'AndFilter':
      return (filter.filters ?? []).every((f) => matches(f, entry));
    case 'OrFilter':
      return (filter.filters ?? []).some((f) => matches(f, entry));
    case 'NotFilter':
      return !matches(filter.filter!, entry);
    case 'PresenceFilter':
      return values(attribute).length > 0;
    case 'EqualityFilter':
    case 'ApproximateFilter':
      return values(attribute).some(equal);
    case 'SubstringFilter': {
      const parts = [filter.subInitial ?? '', ...(filter.subAny ?? []), filter.subFinal ?? ''].map(escapeRegExp);
      const pattern = new RegExp(`^${parts.join('.*')}$`, 'is');
      return values(attribute).some((v) => pattern.test(v));
    }
    case 'GreaterThanEqualsFilter':
      return values(attribute).some((v) => v.toLowerCase() >= wanted.toLowerCase());
    case 'LessThanEqualsFilter':
      return values(attribute).some((v) => v.toLowerCase() <= wanted.toLowerCase());
    case 'ExtensibleFilter':
      switch (filter.matchingRule) {
        case MATCHING_RULE_IN_CHAIN:
          return values(attribute).some(equal);
        case MATCHING_RULE_BIT_AND:
        case MATCHING_RULE_BIT_OR:
          return values(attribute).some((v) => {
            if (!/^\d+$/.test(v) || !/^\d+$/.test(wanted)) return false;
            const bits = BigInt(v) & BigInt(wanted);
            return filter.matchingRule === MATCHING_RULE_BIT_AND ? bits === BigInt(wanted) : bits !== 0n;
          });
        default:
          return false;
      }
    default:
      return false;
  }
}

/** The entry with the attributes the search asked for ('*' or none: all; '1.1': none), names as AD spells them. */
function searchEntry(res: LdapResponse, entry: Entry, req: SearchRequest): object {
  const asked = req.attributes.map((a) => a.toLowerCase());
  const all = asked.length === 0 || asked.includes('*');
  const attributes = Object.entries(entry.attributes)
    .filter(([name]) => all || asked.includes(name.toLowerCase()))
    .map(([type, values]) => new ldap.Attribute({ type, values: req.typesOnly ? [] : values }));
  // ldapjs renders a DN with non-ASCII hex-escaped (CN=\e5\bc\a0...); AD sends the name as written (CN=张三,...),
  // and so does this stand-in for a DN object
  const objectName = { [Symbol.toStringTag]: 'LdapDn', toString: () => entry.dn };
  return new messages.SearchEntry({ messageId: res.messageId, objectName, attributes });
}

/** RFC 4514 escaping of an RDN value written into a DN. */
function escapeRdnValue(value: string): string {
  return value
    .replace(/[,+"\\<>;=]/g, '\\$&')
    .replace(/^[ #]/, '\\$&')
    .replace(/ $/, '\\ ');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
