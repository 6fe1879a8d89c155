// Continues the registration: posts the manifest form to GitHub at once. The button stays for anyone
// without scripts. A file of its own because the page's CSP allows no inline script.
const form = document.querySelector("form[data-autosubmit]");
if (form) form.submit();
