/**
 * The generated fetch client names the DOM's `BodyInit`, which Node's own types keep inside
 * undici's module instead of declaring globally. A project compiled with `lib: ["dom"]` already
 * has it and must leave this file out.
 */
type BodyInit = NonNullable<RequestInit['body']>;
