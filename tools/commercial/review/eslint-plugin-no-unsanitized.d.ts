// eslint-plugin-no-unsanitized ships no types: an ESLint plugin (rules and configs).
declare module 'eslint-plugin-no-unsanitized' {
  const plugin: { rules: Record<string, unknown>; configs: Record<string, unknown> };
  export default plugin;
}
