import sys

from .worker import main

main(sys.argv[1:])
