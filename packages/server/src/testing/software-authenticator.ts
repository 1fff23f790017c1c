import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A passkey authenticator in software for the API tests (decision 067): it answers WebAuthn
 * options as the web passes on a browser's answer, with "none" attestation, an ES256 key and a
 * signature counter that goes up with every assertion.
 */
export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16).toString('base64url');
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  counter = 0;

  private readonly rpId: string;
  private readonly origin: string;

  constructor(rpId: string, origin: string) {
    this.rpId = rpId;
    this.origin = origin;
  }

  /** The answer to registration options (navigator.credentials.create()). */
  register(options: { challenge: string }) {
    const clientData = this.clientData('webauthn.create', options.challenge);
    const credentialId = Buffer.from(this.credentialId, 'base64url');
    const length = Buffer.alloc(2);
    length.writeUInt16BE(credentialId.length);
    // Flags: user present, user verified, attested credential data.
    const authData = Buffer.concat([
      this.authDataHead(0x45),
      Buffer.alloc(16), // AAGUID
      length,
      credentialId,
      Buffer.from(isoCBOR.encode(coseKey(this.keys.publicKey))),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    return this.credential({
      clientDataJSON: clientData.toString('base64url'),
      attestationObject: Buffer.from(attestationObject).toString('base64url'),
      transports: ['internal'],
    });
  }

  /** The answer to authentication options (navigator.credentials.get()); the counter goes up. */
  assert(options: { challenge: string }) {
    this.counter += 1;
    const clientData = this.clientData('webauthn.get', options.challenge);
    const authData = this.authDataHead(0x05);
    const signed = Buffer.concat([authData, createHash('sha256').update(clientData).digest()]);
    return this.credential({
      clientDataJSON: clientData.toString('base64url'),
      authenticatorData: authData.toString('base64url'),
      signature: sign('sha256', signed, this.keys.privateKey).toString('base64url'),
    });
  }

  private clientData(type: string, challenge: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  private authDataHead(flags: number) {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([createHash('sha256').update(this.rpId).digest(), Buffer.from([flags]), counter]);
  }

  /** As the web sends it: @simplewebauthn/browser's answer as JSON text. */
  private credential(response: Record<string, unknown>) {
    return JSON.stringify({
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      response,
      clientExtensionResults: {},
    });
  }
}

/** The public key as COSE (EC2, ES256, P-256). */
function coseKey(publicKey: KeyObject) {
  const jwk = publicKey.export({ format: 'jwk' });
  return new Map<number, unknown>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
    [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
  ]) as never;
}
