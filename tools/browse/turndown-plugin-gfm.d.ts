// @joplin/turndown-plugin-gfm ships no types: the one plugin this project uses.
declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown';
  export const tables: TurndownService.Plugin;
}
