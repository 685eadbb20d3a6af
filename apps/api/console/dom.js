// Builds the page from data without ever parsing data as markup: text becomes text
// nodes, attributes go through setAttribute, handlers through addEventListener. Content
// shown here is hostile user input, so there is no innerHTML anywhere in the console.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An HTML element: h('a', {href: '#/x', class: 'link', on: {click: fn}}, 'text', child). */
export function h(tag, props = {}, ...children) {
  return build(document.createElement(tag), props, children);
}

/** An SVG element, same signature. */
export function s(tag, props = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), props, children);
}

function build(el, props, children) {
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'on') {
      for (const [event, fn] of Object.entries(value)) el.addEventListener(event, fn);
    } else if (name === 'value' && 'value' in el) {
      el.value = value;
    } else if (/^on/i.test(name) || name === 'style' || name === 'srcdoc') {
      throw new Error(`refused attribute ${name}`);
    } else {
      el.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace every child of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** An href only for the console's own routes, same-origin paths and http(s) URLs. */
export function safeHref(url) {
  if (typeof url !== 'string') return null;
  if (url.startsWith('#') || (url.startsWith('/') && !url.startsWith('//'))) return url;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** Show the route `hash`, also when it is the one in the address bar already. */
export function go(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
}
