import Link from "next/link";
import { ForgotPasswordForm } from "./forgot-password-form";

export const dynamic = "force-dynamic";

export default function ForgotPasswordPage() {
  return (
    <section className="form-narrow">
      <h1>Forgot your password?</h1>
      <p className="muted">Enter the e-mail address of your account and we will send you a link to choose a new password.</p>
      <ForgotPasswordForm />
      <p>
        Remembered it? <Link href="/signin">Sign in</Link>.
      </p>
    </section>
  );
}
