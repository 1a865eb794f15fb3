// Wiki bodies are stored only after this allow-list (sanitize-html): what wangEditor produces survives —
// headings, paragraphs with alignment / indent / line height, inline marks and colours, lists, to-do
// items, tables, code blocks, quotes, links — and nothing that can run: no script, no event handlers, no
// style beyond the listed properties with plain values, links only http(s) / mailto, images only from
// this product's own file service. The body is rendered only from this sanitized copy.
import sanitizeHtml from 'sanitize-html';
import { OWN_FILE_URL } from '../../core/uploads.js';

const COLOR = [/^#[0-9a-f]{3,8}$/i, /^rgba?\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*(,\s*(0|1|0?\.\d+)\s*)?\)$/i, /^[a-z]{3,20}$/i];
const LENGTH = [/^\d{1,4}(\.\d{1,2})?(px|em|rem|%)$/, /^auto$/];
const FONT_FAMILY = [/^[\w\s\u4e00-\u9fa5,"'-]{1,80}$/];

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'span', 'div', 'strong', 'b', 'em', 'i', 'u', 's', 'del', 'sub', 'sup', 'code', 'pre', 'blockquote', 'hr',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'a', 'img', 'input',
    'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'colgroup', 'col',
  ],
  allowedAttributes: {
    '*': ['style', 'data-w-e-type', 'data-w-e-is-void', 'data-w-e-is-inline'],
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height', 'data-href'],
    input: ['type', 'checked', 'disabled'],
    th: ['colspan', 'rowspan', 'width'],
    td: ['colspan', 'rowspan', 'width'],
    col: ['width', 'span'],
    code: ['class'],
  },
  allowedClasses: { code: ['language-*'] },
  allowedStyles: {
    '*': {
      color: COLOR,
      'background-color': COLOR,
      'font-size': LENGTH,
      'font-family': FONT_FAMILY,
      'font-weight': [/^(normal|bold|[1-9]00)$/],
      'text-align': [/^(left|right|center|justify)$/],
      'text-indent': LENGTH,
      'line-height': [/^\d(\.\d{1,2})?$/, ...LENGTH],
      'text-decoration': [/^(underline|line-through|none)$/],
      width: LENGTH,
      height: LENGTH,
    },
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: [] }, // images: relative URLs only, then OWN_FILE_URL below
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'template', 'iframe', 'object', 'embed', 'svg', 'math'],
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...(attribs.href ? { href: attribs.href } : {}), ...(attribs.target === '_blank' ? { target: '_blank' } : {}), rel: 'noopener noreferrer nofollow' },
    }),
    // a to-do item's box, never a form control of another kind
    input: (tagName, attribs) => ({ tagName, attribs: { type: 'checkbox', disabled: 'disabled', ...('checked' in attribs ? { checked: 'checked' } : {}) } }),
  },
  exclusiveFilter: (frame) => frame.tag === 'img' && !OWN_FILE_URL.test(frame.attribs.src ?? ''),
};

/** The storable form of a wiki body. */
export function sanitizeWiki(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
