// Vite turns `import url from './x.wasm?url'` into the URL of the hashed asset.
declare module '*.wasm?url' {
  const url: string;
  export default url;
}
