// The two pieces of ldapjs 3 the suite's StartTLS front uses (testing/ldap.ts), which ship without types.
declare module '@ldapjs/asn1' {
  export class BerReader {
    constructor(data: Buffer);
    readSequence(tag?: number): number | null;
    readInt(): number | null;
    readString(tag?: number): string | null;
  }
}
declare module '@ldapjs/messages' {
  export class ExtensionResponse {
    constructor(options: { messageId: number; status: number; responseName?: string });
    toBer(): { buffer: Buffer };
  }
}
