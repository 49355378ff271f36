import { describe, expect, it } from 'vitest';
import { cn } from '@/lib/cn';
import { buttonVariants, inputClass, labelClass } from './recipes';

const classSet = (classes: string) => [...new Set(classes.split(/\s+/).filter(Boolean))].sort();

// The public pages use the recipes on native elements without tailwind-merge: that is only right while no recipe
// carries two classes of the same group (tailwind-merge would drop one).
describe('class recipes', () => {
  it('give the same classes with or without tailwind-merge', () => {
    for (const variant of ['default', 'destructive', 'outline', 'secondary', 'ghost', 'link', 'success'] as const) {
      for (const size of ['default', 'sm', 'lg', 'icon', 'inline'] as const) {
        const classes = buttonVariants({ variant, size });
        expect(classSet(cn(classes))).toEqual(classSet(classes));
      }
    }
    expect(classSet(cn(inputClass))).toEqual(classSet(inputClass));
    expect(classSet(cn(labelClass))).toEqual(classSet(labelClass));
  });
});
