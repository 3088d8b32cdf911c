#!/bin/sh
# kubectl stand-in for the lab (there is no Kubernetes API here): records every call in
# /var/log/kubectl-standin.log and keeps each node's .spec.unschedulable as a file, so the role's
# "read, then cordon only when needed" logic is exercised for real. Understands exactly the two calls
# the role makes: get node N -o jsonpath={.spec.unschedulable}, and cordon N.
echo "$*" >> /var/log/kubectl-standin.log
d=/var/lib/kubectl-standin
mkdir -p "$d"
[ "$1" = --kubeconfig ] && [ -r "$2" ] || { echo "error: stand-in needs --kubeconfig <readable file>" >&2; exit 1; }
shift 2
case "$1 $2" in
  "get node") [ -e "$d/$3" ] && printf true; exit 0 ;;
  "cordon "*) touch "$d/$2"; echo "node/$2 cordoned" ;;
  *) echo "kubectl stand-in: unsupported call: $*" >&2; exit 1 ;;
esac
