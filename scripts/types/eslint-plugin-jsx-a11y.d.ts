// eslint-plugin-jsx-a11y ships no types (6.10.2). With checkJs on, eslint.config.js imports it,
// so this names the two parts the config uses: the plugin itself and its recommended flat config.
declare module 'eslint-plugin-jsx-a11y' {
  import type { ESLint, Linter } from 'eslint';
  const plugin: ESLint.Plugin & { flatConfigs: { recommended: Linter.Config } };
  export default plugin;
}
