// `express5` is the dev-only alias of express@5 (package.json); its types are @types/express 5.
declare module 'express5' {
  import express from 'express';
  export = express;
}
