// The contrast of every visible text on the page, computed from the rendered styles (WCAG 2
// relative luminance): for HTML text, its colour over the backgrounds of its ancestors; for SVG
// text, its fill over the shapes painted under its centre (or its own halo stroke).  Returns the
// texts below 4.5:1 (3:1 for large text: 24 px, or 18.66 px bold), and the smallest board text.
() => {
  const parse = (value) => {
    const m = value && value.match(/rgba?\(([\d.]+)[, ]+([\d.]+)[, ]+([\d.]+)(?:[,/ ]+([\d.]+%?))?\)/);
    if (!m) return null;
    let a = m[4] === undefined ? 1 : m[4].endsWith("%") ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
    return [+m[1], +m[2], +m[3], a];
  };
  const over = (top, under) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]);
  };
  const channel = (c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = (c) => 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2]);
  const ratio = (a, b) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const opacity = (el) => {
    let value = 1;
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) value *= parseFloat(getComputedStyle(e).opacity);
    return value;
  };
  // the backgrounds of el and its ancestors, composited from the page's root colour up
  const htmlBackground = (el) => {
    const layers = [];
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.backgroundImage !== "none" && !(e instanceof SVGElement)) return null;
      const colour = parse(style.backgroundColor);
      if (colour && colour[3] > 0) layers.push(colour);
      if (colour && colour[3] >= 1) break;
    }
    let result = [255, 255, 255, 1];
    for (const layer of layers.reverse()) result = over(layer, result);
    return result;
  };
  const svgBackground = (text) => {
    const svg = text.ownerSVGElement;
    const box = text.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    let result = htmlBackground(svg);
    if (!result) return null;
    const shapes = [...svg.querySelectorAll("rect, circle, ellipse, polygon, path")];
    for (const shape of shapes) {
      if (shape.compareDocumentPosition(text) & Node.DOCUMENT_POSITION_PRECEDING) break; // painted above
      if (shape.closest("defs, pattern, clipPath, mask")) continue;
      const style = getComputedStyle(shape);
      if (style.display === "none" || style.visibility !== "visible") continue;
      if (style.fill.startsWith("url(")) return null; // a pattern: not judged here
      const fill = parse(style.fill);
      if (!fill || fill[3] === 0) continue;
      const matrix = shape.getScreenCTM();
      if (!matrix) continue;
      const point = new DOMPoint(x, y).matrixTransform(matrix.inverse());
      if (!shape.isPointInFill(point)) continue;
      fill[3] *= parseFloat(style.fillOpacity) * opacity(shape);
      result = over(fill, result);
    }
    const style = getComputedStyle(text);
    const halo = parse(style.stroke);
    if (halo && halo[3] > 0 && style.paintOrder.startsWith("stroke") && parseFloat(style.strokeWidth) >= 2) {
      result = over(halo, result);
    }
    return result;
  };
  const visible = (el) => {
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
    if (el.closest("[aria-disabled='true'], :disabled, select, option, script, style, title, noscript")) return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && box.right + scrollX > 0 && box.bottom + scrollY > 0;
  };
  const failures = [];
  let checked = 0;
  let smallestBoard = null;
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || seen.has(el) || !visible(el)) continue;
    seen.add(el);
    const style = getComputedStyle(el);
    const isSvg = el instanceof SVGElement;
    const colour = parse(isSvg ? style.fill : style.color);
    const background = isSvg ? svgBackground(el) : htmlBackground(el);
    if (!colour || !background) continue;
    colour[3] *= opacity(el) * (isSvg ? parseFloat(style.fillOpacity) : 1);
    const scale = isSvg && el.getScreenCTM() ? Math.hypot(el.getScreenCTM().a, el.getScreenCTM().b) : 1;
    const size = parseFloat(style.fontSize) * scale;
    const large = size >= 24 || (size >= 18.66 && parseInt(style.fontWeight, 10) >= 700);
    const value = ratio(over(colour, background), background);
    const need = large ? 3 : 4.5;
    checked += 1;
    if (el.closest("#frag-board, #frag-panel") && (smallestBoard === null || size < smallestBoard.size)) {
      smallestBoard = { size: Math.round(size * 10) / 10, text: node.textContent.trim().slice(0, 40) };
    }
    if (value < need) {
      failures.push({
        text: node.textContent.trim().slice(0, 50),
        where: (el.className && el.className.baseVal !== undefined ? el.className.baseVal : el.className) || el.tagName,
        ratio: Math.round(value * 100) / 100,
        need,
        colour: colour.map((c) => Math.round(c * 100) / 100).join(","),
        background: background.map(Math.round).join(","),
      });
    }
  }
  return { failures, checked, smallestBoard };
}
