// A labelled input with its error message beneath it, wired for screen readers.
import { getInputProps, type FieldMetadata } from "@conform-to/react";
import type { InputHTMLAttributes } from "react";

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  errors?: string[] | undefined;
  errorId?: string;
}

export function Field({ label, errors, errorId, id, className = "", ...input }: FieldProps) {
  const error = errors?.[0];
  const describedBy = error ? (errorId ?? `${id}-error`) : undefined;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-200">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`block w-full rounded-md border bg-ink-900 px-3 py-2 text-sm text-slate-100 placeholder:text-slate-500 focus:border-brand-400 focus:outline-none ${
          error ? "border-red-500" : "border-ink-700"
        } ${className}`}
        {...input}
      />
      {error ? (
        <p id={describedBy} className="text-sm text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

interface FormFieldProps extends Omit<FieldProps, "errors" | "errorId" | "type"> {
  field: FieldMetadata<string | undefined>;
  type: "text" | "password";
}

/**
 * A Conform field: its errors, ids and name wired in. Never the native `required` (the browser's own bubble would
 * hide our message under the field): a required field passes `aria-required` instead.
 */
export function FormField({ field, type, ...rest }: FormFieldProps) {
  return <Field errors={field.errors} errorId={field.errorId} {...getInputProps(field, { type })} required={false} {...rest} />;
}
