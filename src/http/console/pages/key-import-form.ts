import { Buffer } from 'node:buffer';
import { isText } from '../../../domain/key-file.js';
import { type Form, one } from '../core.js';
import { csrfField, type Html, html } from '../html.js';
import type { ConsoleSession } from '../session.js';

/**
 * A picked file is read in the browser: a text file is added below what was pasted, so the
 * supplier sees every line the preview reads; any other file travels as base64 for the
 * service to refuse in words ("not a text file"), since a browser cannot tell a PNG's bytes
 * from text by itself. Without the script the text area still works.
 */
const FILE_READER = html`<script>(function(){var input=document.getElementById('key-file');input.addEventListener('change',function(){var f=input.files[0];if(!f)return;f.arrayBuffer().then(function(b){var bytes=new Uint8Array(b),text=null;if(bytes.indexOf(0)<0){try{text=new TextDecoder('utf-8',{fatal:true}).decode(bytes)}catch(e){}}var area=document.getElementById('keys');document.getElementById('file_name').value=f.name;var note=document.getElementById('key-file-note');if(text!==null){area.value=area.value&&!/\\n$/.test(area.value)?area.value+'\\n'+text:area.value+text;document.getElementById('file_base64').value='';note.textContent=f.name+': added below the keys already there.'}else{var s='';for(var i=0;i<bytes.length;i+=32768)s+=String.fromCharCode.apply(null,bytes.subarray(i,i+32768));document.getElementById('file_base64').value=btoa(s);note.textContent=f.name+': will be read by the service.'}input.value=''})})})()</script>`;

export interface KeyImportFormOptions {
  /** What the text area shows: what was sent, so a refusal or a preview never empties it. */
  keys?: string;
  fileName?: string;
  /** Set once a preview was made: the button that stores, with the count it adds. */
  store?: number;
  error?: string;
}

/** The key import form: a text area, a file that adds to it, Preview, then Store. */
export const keyImportForm = (s: ConsoleSession, offerId: string, o: KeyImportFormOptions = {}): Html => {
  const base = `/console/offers/${offerId}/inventory`;
  // a preview made: the form stores what it shows; Preview again reads it anew
  const action = o.store !== undefined ? base : `${base}/preview`;
  return html`<div class="card"><h2 style="margin-top:0">Import keys</h2><form method="post" action="${action}">${csrfField(s.csrf)}
<div><label for="keys">Keys, one per line</label><p class="hint" id="keys-hint">Or paste a CSV or TSV: the first column is read, a header row is skipped. Up to 100,000 keys.</p><textarea id="keys" name="keys" rows="8" aria-describedby="keys-hint${o.error ? ' keys-error' : ''}"${o.error ? html` aria-invalid="true"` : ''}>
${o.keys ?? ''}</textarea>${o.error ? html`<p class="field-error" id="keys-error">${o.error}</p>` : ''}</div>
<div><label for="key-file">Add a text, CSV or TSV file</label><input id="key-file" type="file" accept=".txt,.csv,.tsv,text/plain,text/csv,text/tab-separated-values"><p class="hint" id="key-file-note" aria-live="polite"></p></div>
<input type="hidden" id="file_name" name="file_name" value="${o.fileName ?? ''}"><input type="hidden" id="file_base64" name="file_base64" value="">
<div class="row">${
    o.store !== undefined
      ? html`${o.store > 0 ? html`<button type="submit">Store ${o.store.toLocaleString('en')} key${o.store === 1 ? '' : 's'}</button>` : ''}<button class="plain" type="submit" formaction="${base}/preview">Preview again</button>`
      : html`<button type="submit">Preview</button>`
  }</div></form>${FILE_READER}</div>`;
};

/** The file a form sent: the text area, and a picked file's text below it (or why it cannot be read). */
export type SentKeys = { content: string; fileName: string } | { notText: string; keys: string; fileName: string };

export const sentKeys = (form: Form): SentKeys => {
  const keys = one(form, 'keys');
  const fileName = one(form, 'file_name').trim().slice(0, 255) || 'pasted keys';
  const encoded = one(form, 'file_base64');
  if (!encoded) return { content: keys, fileName };
  const bytes = Buffer.from(encoded, 'base64');
  if (!isText(bytes)) return { notText: fileName, keys, fileName };
  const text = bytes.toString('utf8');
  return { content: keys && !keys.endsWith('\n') ? `${keys}\n${text}` : `${keys}${text}`, fileName };
};
