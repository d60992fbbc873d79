import { hash, verify } from '@node-rs/argon2';
import { hashPasswordForLogin } from '@bwc/protocol';

/**
 * Passwords arrive as sha256(password) (the login form hashes them, protocol crypto/signature.ts);
 * the database keeps argon2id of that digest.
 */
export function hashLoginDigest(digest: string): Promise<string> {
  // @node-rs/argon2 hashes with argon2id by default (its Algorithm enum is a const enum)
  return hash(digest);
}

export function hashPlainPassword(password: string): Promise<string> {
  return hashLoginDigest(hashPasswordForLogin(password));
}

export async function verifyLoginDigest(storedHash: string, digest: string): Promise<boolean> {
  try {
    return await verify(storedHash, digest);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spend the same argon2 work for an unknown username as for a known one, so that answer times
 * do not tell which accounts exist. Always false.
 */
export async function verifyAgainstDummy(digest: string): Promise<false> {
  dummyHash ??= hashLoginDigest('0'.repeat(64));
  await verifyLoginDigest(await dummyHash, digest);
  return false;
}
