"""equivalence"""
