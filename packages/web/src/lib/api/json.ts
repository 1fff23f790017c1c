/** A server type as it arrives over JSON: every Date is an ISO string. */
export type JsonOf<T> = T extends Date
  ? string
  : T extends readonly (infer Item)[]
    ? JsonOf<Item>[]
    : T extends object
      ? { [Key in keyof T]: JsonOf<T[Key]> }
      : T;
