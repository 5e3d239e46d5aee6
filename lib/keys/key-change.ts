/** Something about a key, or about every key of a user (a tier change), is no longer true. */
export interface KeyChange {
  keyId?: string;
  userId?: string;
}
