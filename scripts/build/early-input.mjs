// @ts-check
// The page's first script, inline in <head>: from the first paint until the page's own
// script runs (a deferred module, a round trip or more later on a phone: the app's boot
// script, or a document's), a tap on a control that needs a script, or an arrow key on a tab,
// is held here, so it neither does the wrong thing (a submit would post the prerendered form
// to the static host) nor is lost. That script takes what was held
// (src/lib/take-early-input.ts) and answers it.
// Inline, so no request stands before it; small, and idle until the visitor acts. Its hash
// goes into the Content-Security-Policy (the security headers plugin in vite.config.ts): no
// 'unsafe-inline'. This module runs at build time, in Node: vite.config.ts makes the script
// from it and inlines it in every page; no browser code imports it.
import { createHash } from 'node:crypto';

/** Keys a tab answers (Radix's roving focus), without a modifier. */
const TAB_KEYS = '^(Arrow(Left|Right|Up|Down)|Home|End|Page(Up|Down))$';

/**
 * The inline script's source: holds clicks on `needsApp` controls (and, in a frame, unmodified
 * clicks on `needsAppInFrame` links) and tab keys inside #root.
 * @param {string} needsApp the selector of controls that need the app (NEEDS_APP)
 * @param {string} needsAppInFrame links that need it in a frame (NEEDS_APP_IN_FRAME)
 */
export function earlyInputScript(needsApp, needsAppInFrame) {
  return `(function(needsApp,inFrame,tabKeys){var held=[],doc=document,framed;try{framed=window.self!==window.top}catch(e){framed=true}if(framed)needsApp+=','+inFrame;function hold(event){var target=event.target;if(!(target instanceof Element))return;var control=event.type==='click'?target.closest(needsApp):target.getAttribute('role')==='tab'&&tabKeys.test(event.key)&&!(event.altKey||event.ctrlKey||event.metaKey||event.shiftKey)?target:null;var root=doc.getElementById('root');if(!control||!root||!root.contains(control))return;if(control instanceof HTMLAnchorElement&&(event.button!==0||event.metaKey||event.ctrlKey||event.shiftKey||event.altKey))return;event.preventDefault();event.stopPropagation();held.push({type:event.type,target:control,key:event.key})}doc.addEventListener('click',hold,true);doc.addEventListener('keydown',hold,true);window.__earlyInput=function(){doc.removeEventListener('click',hold,true);doc.removeEventListener('keydown',hold,true);return held}})(${JSON.stringify(needsApp)},${JSON.stringify(needsAppInFrame)},new RegExp(${JSON.stringify(TAB_KEYS)}));`;
}

/**
 * The CSP source that allows exactly `script` inline.
 * @param {string} script
 */
export function scriptHash(script) {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

/**
 * Vite plugin: puts `script` into index.html's <head> (every page's template) right after the
 * charset, before the stylesheet (an inline script after a pending stylesheet would wait for it).
 * @param {string} script from earlyInputScript
 * @returns {import('vite').Plugin}
 */
export function earlyInputPlugin(script) {
  return {
    name: 'yyc-early-input',
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        const charset = /<meta charset="UTF-8"\s*\/?>/i;
        if (!charset.test(html))
          throw new Error('index.html has no <meta charset="UTF-8" /> to put the early-input script after');
        return html.replace(charset, (tag) => `${tag}\n    <script>${script}</script>`);
      },
    },
  };
}
