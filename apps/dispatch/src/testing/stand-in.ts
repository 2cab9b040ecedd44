/** The public surface of a class, so a fake can stand in for a repository or client with private fields. */
export type PublicOf<T> = { [K in keyof T]: T[K] };

/** Hands a fake that has the whole public surface of `T` to code that asks for a `T`. */
export function standIn<T>(fake: NoInfer<PublicOf<T>>): T {
  return fake as unknown as T;
}
