/**
 * The link that opens a stop in the phone's navigation: a `geo:` URI on Android (its maps app
 * offers to navigate), Apple Maps on iPhones and iPads, Google Maps' directions elsewhere. Built
 * from the position alone: no map tiles are needed for it.
 */
export function navigationLink(lat: number, lng: number, userAgent = navigator.userAgent): string {
  const la = lat.toFixed(6);
  const ln = lng.toFixed(6);
  if (/android/i.test(userAgent)) return `geo:${la},${ln}?q=${la},${ln}`;
  if (/iphone|ipad|ipod/i.test(userAgent)) return `https://maps.apple.com/?daddr=${la},${ln}`;
  return `https://www.google.com/maps/dir/?api=1&destination=${la},${ln}`;
}
