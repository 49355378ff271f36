import { useEffect } from 'react';

const PRODUCT = 'Maillon';

function setMeta(selector: string, attribute: 'name' | 'property', key: string, value: string) {
  let element = document.head.querySelector<HTMLMetaElement>(selector);
  if (!element) {
    element = document.createElement('meta');
    element.setAttribute(attribute, key);
    document.head.appendChild(element);
  }
  element.content = value;
}

/** Each page sets its title, description, preview image and no-index flag (spec §1; all pages no-index). */
export function usePageMeta({ title, description, noIndex = true }: { title?: string; description?: string; noIndex?: boolean }) {
  useEffect(() => {
    document.title = title ? `${title} · ${PRODUCT}` : PRODUCT;
    const text = description ?? 'Maillon relie les techniciens indépendants aux défibrillateurs à entretenir partout en France.';
    setMeta('meta[name="description"]', 'name', 'description', text);
    setMeta('meta[property="og:title"]', 'property', 'og:title', title ?? PRODUCT);
    setMeta('meta[property="og:description"]', 'property', 'og:description', text);
    setMeta('meta[property="og:image"]', 'property', 'og:image', '/og-image.svg');
    setMeta('meta[name="robots"]', 'name', 'robots', noIndex ? 'noindex, nofollow' : 'index, follow');
  }, [title, description, noIndex]);
}
