import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/** Renders `value` as a QR code into a data-URL image (no canvas kept in the page). */
export function QrCode({ value, alt = 'Pairing QR code', size = 224 }: { value: string; alt?: string; size?: number }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let cancelled = false;
    setFailed(false);
    QRCode.toDataURL(value, { errorCorrectionLevel: 'M', margin: 2, width: size, color: { dark: '#111827', light: '#ffffff' } })
      .then((url) => {
        if (!cancelled) setSrc(url);
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [value, size]);
  if (failed) return <p className="muted">The QR code could not be drawn; use the key text instead.</p>;
  if (!src) return <div className="qr-placeholder" style={{ width: size, height: size }} aria-hidden="true" />;
  return <img className="qr" src={src} alt={alt} width={size} height={size} />;
}
