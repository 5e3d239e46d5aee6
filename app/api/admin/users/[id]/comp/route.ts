// POST /api/admin/users/{id}/comp — an operator grants a paid plan without charge under Stripe billing (a 100 % coupon subscription); audited as the operator.
import { readJson } from "@/lib/api/read-json";
import { withSession } from "@/lib/api/with-session";
import { billingProvider } from "@/lib/billing/billing-provider";
import { compPlan, compSchema, compView } from "@/lib/billing/stripe/comp-plan";
import { isStripeProvider } from "@/lib/billing/stripe/stripe-provider";
import { AppError } from "@/lib/errors";

export const POST = withSession<{ id: string }, "admin">("admin", async ({ request, db, user, params, origin }) => {
  const grant = await readJson(request, compSchema);
  const provider = billingProvider();
  // Under demo billing every plan is free already: the tier form changes it.
  if (!isStripeProvider(provider)) throw new AppError("NOT_FOUND", "Stripe billing is not configured: change the tier instead");
  return { data: compView(await compPlan(db, provider, { userId: user.id }, { userId: params.id, ...grant }, origin)) };
});
