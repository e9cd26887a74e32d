/** pgpass (the password file reader pg uses) ships no types: the one call the team store makes. */
declare module 'pgpass' {
  const pgpass: (
    info: { host?: string; port?: number; database?: string; user?: string },
    cb: (password: string | undefined) => void,
  ) => void;
  export default pgpass;
}
