import { useEffect, useRef } from 'react';
import SignaturePad from 'signature_pad';
import { Eraser } from 'lucide-react';
import { Button } from '@/components/ui/button';

/**
 * The site contact signs with a finger, across the whole width. The drawing is kept as a PNG (base64) in the form
 * (and so in the draft): a reload or another phone shows it again; a resize redraws it.
 */
export function SignatureField({
  value,
  onChange,
  disabled,
  labelledBy,
}: {
  value: string | null;
  onChange: (signature: string | null, signedAt: string | null) => void;
  disabled: boolean;
  labelledBy: string;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const valueRef = useRef(value);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    valueRef.current = value;
    onChangeRef.current = onChange;
  });

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return undefined;
    const pad = new SignaturePad(canvas, { penColor: '#111111', minWidth: 1.2, maxWidth: 3.2, backgroundColor: 'rgba(0,0,0,0)' });
    padRef.current = pad;
    const fit = () => {
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      const width = canvas.offsetWidth;
      const height = canvas.offsetHeight;
      if (width === 0 || height === 0) return;
      canvas.width = width * ratio;
      canvas.height = height * ratio;
      canvas.getContext('2d')?.scale(ratio, ratio);
      pad.clear();
      if (valueRef.current) void pad.fromDataURL(`data:image/png;base64,${valueRef.current}`, { ratio, width, height }).catch(() => undefined);
    };
    fit();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(() => fit()) : null;
    observer?.observe(canvas);
    const onEnd = () => {
      const data = pad.toDataURL('image/png').split(',')[1] ?? null;
      onChangeRef.current(pad.isEmpty() ? null : data, new Date().toISOString());
    };
    pad.addEventListener('endStroke', onEnd);
    return () => {
      observer?.disconnect();
      pad.removeEventListener('endStroke', onEnd);
      pad.off();
    };
  }, []);

  useEffect(() => {
    const pad = padRef.current;
    if (!pad) return;
    if (disabled) pad.off();
    else pad.on();
  }, [disabled]);

  const clear = () => {
    padRef.current?.clear();
    onChange(null, null);
  };

  return (
    <div className="grid gap-2">
      <div className="relative rounded-md border-2 border-dashed border-input bg-background">
        <canvas
          ref={canvasRef}
          role="img"
          aria-labelledby={labelledBy}
          data-testid="signature-pad"
          className="block h-48 w-full touch-none"
        />
        {!value ? (
          <span className="pointer-events-none absolute inset-x-0 bottom-3 text-center text-sm text-muted-foreground" aria-hidden="true">
            Signez ici avec le doigt
          </span>
        ) : null}
      </div>
      <Button type="button" variant="outline" size="lg" onClick={clear} disabled={disabled || !value}>
        <Eraser aria-hidden="true" /> Effacer la signature
      </Button>
    </div>
  );
}
