import type { TFunction } from 'i18next';
import type { MapDevice } from '../api/map-devices.ts';
import { externalMapUrl } from '../lib/map.ts';

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * A marker's popup, built when it opens (plain DOM, so 10,000 markers cost no React trees): name,
 * address, owner, status, a link to the device (in the app) and one to an external maps service.
 */
export function popupContent(device: MapDevice, t: TFunction, openDevice: (id: number) => void): HTMLElement {
  const root = element('div');
  root.dataset.testid = 'map-popup';
  root.append(element('strong', `${device.name} (${t('devices.map.deviceLabel', { id: device.id })})`));
  const { street, streetNumber, postalCode, city } = device.address;
  const address = [
    [street, streetNumber].filter(Boolean).join(' '),
    [postalCode, city].filter(Boolean).join(' '),
  ]
    .filter(Boolean)
    .join(', ');
  if (address) root.append(element('div', address));
  root.append(element('div', t('devices.map.owner', { name: device.user.name })));
  const status =
    t(`devices.list.status.${device.status}`) + (device.active ? '' : ` · ${t('devices.list.inactive')}`);
  root.append(element('div', status));

  const links = element('div');
  links.style.marginTop = '6px';
  const open = element('a', t('devices.map.openDevice'));
  open.href = `/devices/${device.id}`;
  open.addEventListener('click', (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    openDevice(device.id);
  });
  const external = element('a', t('devices.map.openExternal'));
  external.href = externalMapUrl(device.location.lat, device.location.lng);
  external.target = '_blank';
  external.rel = 'noopener noreferrer';
  links.append(open, element('span', ' · '), external);
  root.append(links);
  return root;
}
