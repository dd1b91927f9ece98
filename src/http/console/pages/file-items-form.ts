import { csrfField, type Html, html } from '../html.js';
import type { ConsoleSession } from '../session.js';

/** The contract's file items: a picture or a PDF each, read by the API for what it says it is. */
export const FILE_ITEM_TYPES = ['image/png', 'image/jpeg', 'application/pdf'] as const;
export const MAX_FILE_ITEM_BYTES = 200 * 1024;

/**
 * Picked files are read in the browser into a hidden field each (name, then base64), since
 * the console's forms post as text; one item per file. Without the script nothing is sent,
 * and the page says the files need it.
 */
const FILE_ITEMS_READER = html`<script>(function(){var input=document.getElementById('item-files'),box=document.getElementById('item-files-data');input.addEventListener('change',function(){box.textContent='';Array.prototype.forEach.call(input.files,function(f){f.arrayBuffer().then(function(b){var bytes=new Uint8Array(b),s='';for(var i=0;i<bytes.length;i+=32768)s+=String.fromCharCode.apply(null,bytes.subarray(i,i+32768));var n=document.createElement('input');n.type='hidden';n.name='file';n.value=f.name+'/'+btoa(s);box.appendChild(n)})})})})()</script>`;

export const fileItemsForm = (s: ConsoleSession, offerId: string): Html =>
  html`<div class="card"><h2 style="margin-top:0">Upload file items</h2><form method="post" action="/console/offers/${offerId}/inventory/files">${csrfField(s.csrf)}
<div><label for="item-files">Pictures or PDFs (PNG, JPEG or PDF, up to 200 KB each): one item per file</label><input id="item-files" type="file" multiple accept=".png,.jpg,.jpeg,.pdf,image/png,image/jpeg,application/pdf"></div><div id="item-files-data"></div>
<noscript><p class="hint">Uploading files needs JavaScript; keys can be pasted above without it.</p></noscript>
<div class="row"><button type="submit">Upload files</button></div></form>${FILE_ITEMS_READER}</div>`;
