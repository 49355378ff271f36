import * as React from 'react';
import { cn } from '@/lib/cn';
import { inputClass } from './recipes';

export { inputClass };

export function Input({ className, type = 'text', ...props }: React.ComponentProps<'input'>) {
  return <input type={type} className={cn(inputClass, className)} {...props} />;
}

export function Textarea({ className, ...props }: React.ComponentProps<'textarea'>) {
  return <textarea className={cn(inputClass, 'h-auto min-h-20 resize-y', className)} {...props} />;
}

/** Native select: the best picker on phones, styled like the inputs. */
export function NativeSelect({ className, children, ...props }: React.ComponentProps<'select'>) {
  return (
    <select className={cn(inputClass, 'appearance-auto pr-8', className)} {...props}>
      {children}
    </select>
  );
}
